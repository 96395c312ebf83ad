# Dubslaff et al. 2024, Fig. 3 (digest §4.2): expected tt, tt, tt, tt, ff, ff, tt, ff
E G red
E F E G black
E F E G blue
E F black
E G blue
A X E (blue U red)
E X red | E X E (blue U black)
A G (blue --> E F black)
