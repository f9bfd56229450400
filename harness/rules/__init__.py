"""The rules the contracts, the loopback profiles and the probe judge with: each stated once, with its level."""
