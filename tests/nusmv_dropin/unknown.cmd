go
foo_bar
check_ctlspec
quit
