# Node-name labels: m2 (used here) and m1 (also labels f0) are DEFINEd; m0, f0, f1 are not
A G ~m2
A G (def --> E F m2)
