"""The team kinds (a league in divisions, a team Swiss): their build, pages and letters."""
