# Snapbacks and throw-ins (format: README.md). Checked against GNU Go 3.8.

% corner snapback: a throw-in at either liberty is captured and retaken
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
X X X X . . .
O O O X . . .
. . O X . . .
attack A2 captured A1|B1
defend A2 captured

% the same shape with White to move: a pass loses, and so does every move
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
X X X X . . .
O O O X . . .
. . O X X . .
defend C1 captured
attack C1 captured A1|B1

% double atari: the owner escapes only by capturing the black corner string
# (connecting at C2 would be suicide)
. . . . . . .
. . . . . . .
. . . . . . .
. X X X X . .
X O O O X . .
X O . O X . .
X X O X X . .
attack B3 captured C2
defend B3 saved A4
