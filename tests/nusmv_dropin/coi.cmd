# Interactive check_* commands without -n order the properties by cone of influence size
# (use_coi_size_sorting, on by default): main's COMPUTEs (cone {x, stuck}) before those of the
# instance s (cone {s.done, x, stuck}); check_property mixes the kinds in that order.
read_model -i compute.smv
go
check_property
quit
