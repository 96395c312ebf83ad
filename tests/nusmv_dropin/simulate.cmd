# pick_state and simulate, deterministic choices (NuSMV's -r choices are random)
go
pick_state
simulate -k 2
simulate -v -k 1
simulate -p -k 1
pick_state -c "x = 0 & b = TRUE"
pick_state -v -c "b"
simulate -v -k 2 -c "x = 1"
simulate -p -k 2 -t "next(x) = x"
show_traces -v 3
show_traces 1
pick_state -c "x = 3"
echo not reached
