gwctl lint overlays/          # overlays/kustomization.yaml is a tool file
