"""The National Junior's rules part (seed 004_…, ``[entries] rules = "national-junior-2024"``):
its office pages (entries, fees, boarding, entry lists), statistics by state association and
letters to the state associations, in a Swiss event."""
