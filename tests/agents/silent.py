"""An agent that never calls the provider: it prints ``done`` and exits 0.

    python silent.py {base_url}
"""

print("done")
