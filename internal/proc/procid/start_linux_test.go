package procid

import "testing"

func TestParseStat(t *testing.T) {
	// A command name with spaces and parentheses, as a process may choose.
	line := "4242 (a) b (c) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 100 18446744073709551615\n"
	ticks, zombie, err := parseStat([]byte(line))
	if err != nil || ticks != 987654 || zombie {
		t.Fatalf("parseStat = %d, %v, %v; want 987654, false, nil", ticks, zombie, err)
	}
	zline := "7 (z) Z 1 7 7 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 55 0 0\n"
	if ticks, zombie, err := parseStat([]byte(zline)); err != nil || ticks != 55 || !zombie {
		t.Fatalf("parseStat(zombie) = %d, %v, %v", ticks, zombie, err)
	}
	for _, bad := range []string{"", "1 (x", "1 (x) S 1 2", "1 (x) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 notanumber"} {
		if _, _, err := parseStat([]byte(bad)); err == nil {
			t.Errorf("parseStat(%q) accepted", bad)
		}
	}
}
