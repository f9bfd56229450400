"""What runs produce, below every engine and every renderer: contract results, mutant verdicts, scores."""
