# Tactical reading cases (format: tests/data/tactics/README.md).
# Ladder shapes after the ones in Pachi's t-unit/ladder.t, rewritten in this
# format and checked against GNU Go 3.8's attack/defend.

% basic ladder: the stone in atari runs but is caught
. . . . .
. . O . .
. O X . .
. . O O .
. . . . .
defend C3 captured
attack C3 captured D3
ladder C3 yes

% ladder without a breaker on 7x7
. . . . . . .
. . . . . . .
. . . . . . .
. . O . . . .
. O X . . . .
. . O O . . .
. . . . . . .
defend C3 captured
ladder C3 yes

% ladder broken by a ladder breaker (black E5 on the ladder's path), 9x9
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . X . . . .
. . O . . . . . .
. O X . . . . . .
. . O O . . . . .
. . . . . . . . .
defend C3 saved D3
attack C3 captured D3
ladder C3 no

% the same ladder without the breaker, 9x9
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . O . . . . . .
. O X . . . . . .
. . O O . . . . .
. . . . . . . . .
defend C3 captured
ladder C3 yes

% ladder broken by a countercapture (white F3 in atari after the run)
. . . . . . .
. . . . . . .
. . . . . . .
. . O . . . .
. O X . . X .
. . O O . O .
. . . . . . .
defend C3 saved
ladder C3 no

% ladder works although a countercapture looks possible
. . . . . . .
. . . . . O .
. . . . . . .
. . O . . . .
. O X . . X .
. . O O . O .
. . . . . . .
defend C3 captured
ladder C3 yes

% attacker first: two liberties, the right atari starts a working ladder
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. O X . . . .
. . O O . . .
. . . . . . .
attack C3 captured C4

% long ladder across an empty 19x19 board (about 60 plies of ladder)
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . O . . . . . . . . . . . . . . . .
. O X . . . . . . . . . . . . . . . .
. . O O . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
defend C3 captured
ladder C3 yes

