# Nets (geta), a net around a 3-liberty string, a broken net and a throw-in
# (format: README.md). Read by hand move by move (the lines are in the
# comments) and checked against GNU Go 3.8's attack/defend, which agrees on
# every result and first move below.

% net: the diagonal geta at E5 on a 2-liberty stone (ladders broken by G7)
# White D4 has liberties D5 and E4. After B E5: W D5, B D6 leaves D4-D5 one
# liberty (E4, next to E3 and E5); W E4, B F4 leaves one (D5, next to C5 and
# E5). A direct atari is a ladder running up-right into the white G7 breaker.
. . . . . . . . .
. . . . . . . . .
. . . . . . O . .
. . . . . . . . .
. . X . . . . . .
. . X O . . . . .
. . . X X . . . .
. . . . . . . . .
. . . . . . . . .
attack D4 captured E5
defend D4 saved

% net broken: a white stone at D6 connects the extension D5 to the outside
. . . . . . . . .
. . . . . . . . .
. . . . . . O . .
. . . O . . . . .
. . X . . . . . .
. . X O . . . . .
. . . X X . . . .
. . . . . . . . .
. . . . . . . . .
attack D4 saved

% net around a 3-liberty string: the knight's-move geta at F5
# D4-E4 has liberties D5, E5, F4; F5 touches two of them. After B F5 every
# extension is met by a block that leaves at most two liberties:
#   W F4, B G4 (no atari); then W D5, B D6 or W E5, B E6 -- one liberty left.
#   W E5, B E6; then W D5, B D6 or W F4, B G4.   W D5, B D6; likewise.
# A liberty first (D5, E5 or F4) lets White run: no direct attack works.
. . . . . . . . .
. . . . . . . . .
. . . . . . O . .
. . . . . . . . .
. . X . . . . . .
. . X O O . . . .
. . . X X X . . .
. . . . . . . . .
. . . . . . . . .
attack D4 captured F5
defend D4 saved E5
