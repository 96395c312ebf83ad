set input_file network.smv
go
check_ctlspec; check_invar -p "ga | !ga"
reset
read_model -i deadlock.smv; go
check_fsm
show_traces 3
quit
