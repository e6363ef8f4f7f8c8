package charts

import "github.com/k3sconf/k3sconf/helm/internal/release"

// ReleaseStatus gives the external tests the report's release comparison.
func (rep *Report) ReleaseStatus() *release.Status { return rep.relStatus }
