# With use_coi_size_sorting unset, check_property checks by kind, each in index order.
read_model -i compute.smv
go
unset use_coi_size_sorting
check_property
quit
