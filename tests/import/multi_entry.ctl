E F done
A F (q & E X u)
