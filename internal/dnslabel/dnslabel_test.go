package dnslabel

import "testing"

func TestFrom(t *testing.T) {
	tests := []struct {
		in, want, why string
	}{
		{"traefik", "traefik", "already a label"},
		{"My_Addon", "my-addon", "upper case is lowered, underscore becomes a dash"},
		{"k3s-server-1", "k3s-server-1", "dashes inside are kept"},
		{"_server_", "server", "dashes from the ends are trimmed"},
		{"nœud", "n-ud", "non-ASCII letters are not label characters"},
		{"___", "", "nothing left: the caller picks the fallback"},
	}
	for _, tt := range tests {
		if got := From(tt.in); got != tt.want {
			t.Errorf("From(%q) = %q, want %q (%s)", tt.in, got, tt.want, tt.why)
		}
	}
}
