package session

import "github.com/tribunal-cc/tribunal/internal/judging"

// The shadow jury of `calibrate` and `rejudge` is the engine's: these
// names stay for callers written against session; new code uses
// internal/judging directly.
type (
	Jury        = judging.Jury
	JuryOptions = judging.Options
	Work        = judging.Work
	Judgement   = judging.Judgement
)

// LoadJury loads the judge configuration that `run` would use
// (judging.Load). Its error is a *ConfigError.
func LoadJury(opts JuryOptions, d Deps) (*Jury, error) {
	j, err := judging.Load(opts, d.withDefaults().Env)
	if err != nil {
		return nil, err
	}
	return j, nil
}
