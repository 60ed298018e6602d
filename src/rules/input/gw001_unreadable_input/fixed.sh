gwctl lint manifests/             # a path that exists
