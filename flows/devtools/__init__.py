"""Developer tools, not what an office needs: benchmarks (bench, bench_site, bench_season), the
cross-verification campaign (campaign, crosscheck), generators of events (generate, simulate,
demo/)."""
