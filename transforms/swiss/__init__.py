"""A Swiss event as an office runs it (DESIGN.md "Swiss events"): the scorecard built from
results.csv (scorecard), one round as the pairing engine sees it and back (rounds), the whole
event from its checked inputs to standings, pairings and the audit (event), and taking an
event over from a TRF file (takeover)."""
