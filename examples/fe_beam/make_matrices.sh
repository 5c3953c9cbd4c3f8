#!/usr/bin/env bash
# Write the beam's matrices (beam.sti, beam.mas, beam.dof) and CalculiX's own
# eigenfrequencies (beam_modes.dat) with CalculiX (Debian: calculix-ccx).
set -euo pipefail
cd "$(dirname "$0")"
ccx beam > /dev/null
ccx beam_modes > /dev/null
rm -f beam.12d beam.cvg beam.frd beam.sta beam.dat beam_modes.12d beam_modes.cvg beam_modes.frd beam_modes.sta spooles.out
echo "wrote beam.sti, beam.mas, beam.dof, beam_modes.dat"
