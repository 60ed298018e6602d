gwctl lint route.yaml         # saved as UTF-16 or binary
