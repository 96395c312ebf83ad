E G p
E p q
A X (p & ) 
E F p $ q
(X p)
