"""The publish tier: pages, PDFs, letters and messages made in process; no Prefect flow runs."""
