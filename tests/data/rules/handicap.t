# Handicap setup and the compensation White receives under area scoring.

case 4 handicap stones on 9x9 are placed on the 3-3 points
rules chinese
komi 0.5
size 9
handicap 4
expect-board
. . . . . . . . .
. . . . . . . . .
. . X . . . X . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . X . . . X . .
. . . . . . . . .
. . . . . . . . .
end
score area B+76.5         # 81 - (0.5 + 4 compensation)
score rules B+76.5
play B C3 illegal occupied
play W E5                 # White moves first after a handicap

case aga compensation is one point per stone after the first
rules aga
komi 0.5
size 9
handicap 4
score area B+77.5         # 81 - (0.5 + 3)

case new-zealand gives no compensation (its text: White passes, no komi)
rules new-zealand
komi 0.5
size 9
handicap 4
score area B+80.5

case territory scoring gives nothing for handicap stones
rules japanese
komi 0.5
size 9
handicap 4
score territory B+76.5    # 77 territory - 0.5
score rules B+76.5

case tromp-taylor counts no compensation
rules tromp-taylor
komi 0.5
size 9
handicap 4
score rules B+80.5        # area, and tromp-taylor gives no compensation
score tromp-taylor B+80.5

case 9 stones on 19x19
size 19
handicap 9
expect-board
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . X . . . . . X . . . . . X . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . X . . . . . X . . . . . X . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . X . . . . . X . . . . . X . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
end

case 2 stones on 19x19 are D4 and Q16
size 19
handicap 2
play W D4 illegal occupied
play W Q16 illegal occupied
play W D16
