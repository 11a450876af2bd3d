"""The servers tier: a real Prefect server, SMTP servers, the browser, killed processes."""
