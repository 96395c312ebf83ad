go
write_flat_model -o /nonexistent-dir/flat.smv
check_invar
quit
