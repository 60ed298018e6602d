gwctl lint --exclude kustomization.yaml overlays/
