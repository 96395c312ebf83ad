# COMPUTE in a session: by index, a -p formula (added to the list), the status column.
read_model -i compute.smv
go
check_compute -n 2
check_compute -n 8
check_compute -p "MIN [ x = 1 , x = 4 ]"
show_property
quit
