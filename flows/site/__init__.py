"""The site: pure page building (no I/O) — pages and PDFs (present, render, pages), the Swiss
and Golden Knights page sets (swiss, swiss_site, swiss_players, golden_knights, gk_*)."""
