E X E X q
E X E X E X q
E X p
