gwctl lint --crds crds/widget-no-group.yaml manifests/   # a CRD without spec.group
