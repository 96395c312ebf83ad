# A scripted session: the commands tools send to NuSMV.
read_model -i counter.smv
flatten_hierarchy
encode_variables
build_model
check_ctlspec -p "AG x < 2"
check_ctlspec -n 1
check_invar
check_property -n 5
compute_reachable
print_reachable_states
show_traces -v 1
show_traces
echo session done
quit
