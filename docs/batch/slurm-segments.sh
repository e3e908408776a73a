#!/bin/bash
# Renders one long song in three segments, one a task of a Slurm job array, for `midiviz join`.
# Run it from the song's folder, with midiviz on your PATH (the job gets your environment):
#   sbatch slurm-segments.sh SONG.mid [RENDER OPTIONS]   # e.g. sbatch slurm-segments.sh song.mid --style keyboard
# Task K of the array writes SONG.part-K.mp4, segment K of 3 of the song's frames (silent). Then,
# once all are done, join them with the same options; the sound is made once, for the whole song:
#   sbatch --dependency=afterok:JOBID --wrap 'midiviz join song.part-1.mp4 song.part-2.mp4 song.part-3.mp4 --song song.mid -o song.mp4 --style keyboard'
# To render one segment again: scontrol requeue JOBID_2.
#SBATCH --job-name=midiviz-segments
#SBATCH --array=1-3
#SBATCH --cpus-per-task=2
#SBATCH --output=midiviz-%A_%a.out
set -euo pipefail
song=$1
shift
# Task K of an array FIRST-LAST[:STEP] is segment K of the array's COUNT. An array of one task
# (sbatch --array=2) cannot tell which segment it is.
if [ "$SLURM_ARRAY_TASK_COUNT" -lt 2 ]; then
    echo "slurm-segments.sh: an array of one task; requeue the task instead (scontrol requeue JOBID_K)" >&2
    exit 64
fi
k=$(((SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN) / ${SLURM_ARRAY_TASK_STEP:-1} + 1))
# exec: Slurm records midiviz's exit status, and scancel's SIGTERM reaches it.
exec midiviz render "$song" --segment "$k/$SLURM_ARRAY_TASK_COUNT" -o "${song%.*}.part-$k.mp4" "$@"
