#!/bin/bash
# Renders songs/ in three shares, one a task of a Slurm job array. Run it from the folder that
# holds songs/, with midiviz on your PATH (the job gets your environment, as sbatch does by
# default; MIDIVIZ_FFMPEG and the SoundFont's path, if you set them, go along too):
#   sbatch slurm-array.sh [RENDER OPTIONS]         # e.g. sbatch slurm-array.sh --style keyboard
# Task K of the array renders share K of 3 (`--shard auto`: SLURM_ARRAY_TASK_ID, _MIN, _MAX,
# _STEP and _COUNT; any FIRST-LAST[:STEP] array works). Videos go to videos/, each task's report
# to reports/JOBID/ (two submissions never mix), Slurm's log to midiviz-JOBID_TASK.out. Then,
# once all are done (merge refuses a missing share or one of another batch):
#   sbatch --dependency=afterany:JOBID --wrap 'midiviz batch --merge-reports reports/JOBID/shard-*.json -o reports/JOBID/all.json'
# To render one share again, requeue its task (scontrol requeue JOBID_2): it keeps the array's
# variables. `sbatch --array=2` is an array of one task, which --shard auto refuses.
#SBATCH --job-name=midiviz
#SBATCH --array=1-3
#SBATCH --cpus-per-task=2
#SBATCH --output=midiviz-%A_%a.out
set -euo pipefail
# Only Slurm says which share this is: not a shard exported where sbatch was run.
unset MIDIVIZ_SHARD MIDIVIZ_SHARD_COUNT CI_NODE_INDEX CI_NODE_TOTAL JOB_COMPLETION_INDEX
mkdir -p "reports/$SLURM_ARRAY_JOB_ID"
# exec: midiviz is the job's process, so Slurm records its exit status (1 when a song failed)
# and scancel's SIGTERM reaches it (it removes its temporaries and exits 143).
exec midiviz batch songs/ --output-dir videos/ --shard auto --report "reports/$SLURM_ARRAY_JOB_ID/shard-$SLURM_ARRAY_TASK_ID.json" "$@"
