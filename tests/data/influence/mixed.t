# Black and white stones: influence cancels (SI is signed, white negative).
board
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . X . . . O . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
tau 140
si 4 4 0       # 50 - 50
si 3 4 67      # 100 - 33
si 5 4 -67
si 3 3 39      # 71 - 32
si 6 4 -80     # a white stone's own point (-100) + the black stone 4 away (20)
count ip_black 0
count ip_white 0
tau 60
ip 3 4 B
ip 5 4 W
ip 4 4 .
count ip_black 4   # (1,4) 87, (3,4) 67, (2,3) 80, (2,5) 80; (1,3) is 71 - 12 = 59
ip 1 3 .
count ip_white 4
