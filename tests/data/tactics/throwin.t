# Throw-ins (format: README.md); the snapback throw-in is in snapback.t.
# Read by hand and checked against GNU Go 3.8 (same results and moves).

% throw-in: sacrifice at A2, then throw in again into the two-point eye
# White A3-B3-C3-C2-C1-B1 has liberties A2 and B2; black A1 is in atari.
# B A2 (two stones in atari), W B2 captures them, leaving a two-point eye
# A1-A2; B A2 again (throw-in), W A1 captures, B A2 takes everything.
# B2 instead fails: W A2 captures both black stones and makes two eyes.
# With White to move, A2 (capturing A1) makes two eyes at once.
. . . . . . .
. . . . . . .
. . . . . . .
X X X X . . .
O O O X . . .
. . O X . . .
X O O X . . .
attack B3 captured A2
defend B3 saved A2
