"""The flows tier: end-to-end flows under the shared Prefect test harness (prefect_harness, demo_run)."""
