"""The office's season (issue 47): what spans the events of a season — the federation's members
(members), and next the rating lists in force and the series over events."""
