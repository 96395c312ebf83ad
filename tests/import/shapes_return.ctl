E F leak
A G (init -> E X quick)
E F nowhere
E G next
