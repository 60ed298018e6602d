gwctl lint manifests/route.yaml   # no such file
