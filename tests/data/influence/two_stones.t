# Two black stones two apart: a lump of 7 IPs with no core (the stones break
# every 2x2 square), so no influence area at tau 140.
board
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . X . X . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
tau 140
si 4 4 200
si 4 3 141     # 70.71 + 70.71 = 141.42 (the rounded powers gave 142)
si 3 3 145     # 100 + 44.72
si 2 4 133     # 100 + 33.33: not an IP
si 4 2 89      # 44.72 + 44.72 = 89.44 (the rounded powers gave 90)
ip 4 4 B
ip 4 3 B
ip 3 3 B
ip 5 5 B
ip 2 4 .
ip 4 2 .
count ip_black 7
count lump_black 1
count core_black 0
count ia_black 0
