gwctl lint --crds crds/widget.yaml manifests/            # spec.group, names.kind and versions set
