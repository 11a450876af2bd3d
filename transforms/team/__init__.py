"""Team competitions (issue 45): teams with rosters play matches of several boards — a league
division as a team round robin (FIDE C.05 Annex 1 on teams) or a team Swiss (FIDE C.04.6) —
ranked by match points or game points and the team tie-breaks of FIDE C.07."""
