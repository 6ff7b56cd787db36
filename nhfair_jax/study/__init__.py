"""Studies built on the benchmark's run directories: training choices, counterfactuals."""
