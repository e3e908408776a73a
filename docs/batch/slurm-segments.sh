#!/bin/bash
# Renders one long song in three segments, one a task of a Slurm job array, for `midiviz join`.
# Run it from the song's folder, with midiviz on your PATH (the job gets your environment):
#   sbatch slurm-segments.sh SONG.mid [RENDER OPTIONS]   # e.g. sbatch slurm-segments.sh song.mid --style keyboard
# Each task takes its own segment from the array's variables (`--segment auto`) and writes
# SONG.part-K-of-3.mp4 (silent). Then, once all are done, join them with the same options (join
# orders the parts by the segment each holds, and refuses a missing or foreign one); the sound is
# made once, for the whole song:
#   sbatch --dependency=afterok:JOBID --wrap 'midiviz join song.part-*-of-3.mp4 --song song.mid -o song.mp4 --style keyboard'
# To render one segment again: scontrol requeue JOBID_2 (an array of one task cannot tell which
# segment it is, and is refused).
#SBATCH --job-name=midiviz-segments
#SBATCH --array=1-3
#SBATCH --cpus-per-task=2
#SBATCH --output=midiviz-%A_%a.out
set -euo pipefail
# Variables of other engines in the submitting shell's environment must not choose the segment.
unset MIDIVIZ_SHARD MIDIVIZ_SHARD_COUNT CI_NODE_INDEX CI_NODE_TOTAL JOB_COMPLETION_INDEX
song=$1
shift
# exec: Slurm records midiviz's exit status, and scancel's SIGTERM reaches it.
exec midiviz render "$song" --segment auto "$@"
