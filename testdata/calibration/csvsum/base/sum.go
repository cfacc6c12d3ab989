// Package csvsum adds up a column of a CSV file.
package csvsum

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
)

// Sum adds up column col (0-based) of every row of r.
func Sum(r io.Reader, col int) (float64, error) {
	rows, err := csv.NewReader(r).ReadAll()
	if err != nil {
		return 0, fmt.Errorf("csvsum: %w", err)
	}
	var total float64
	for _, row := range rows {
		v, err := strconv.ParseFloat(row[col], 64)
		if err != nil {
			return 0, fmt.Errorf("csvsum: %w", err)
		}
		total += v
	}
	return total, nil
}
