A G E F p
E G ~p
