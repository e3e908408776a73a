#!/bin/bash
# sbatch slurm-array.sh: three array tasks; SLURM_ARRAY_TASK_ID, _MIN and _COUNT give each its
# share (`--shard auto`). Then, once all are done:
#   sbatch --dependency=afterany:JOBID --wrap 'midiviz batch --merge-reports reports/shard-*.json -o reports/all.json'
#SBATCH --job-name=midiviz
#SBATCH --array=1-3
#SBATCH --cpus-per-task=2
#SBATCH --output=reports/slurm-%A_%a.out
mkdir -p reports
midiviz batch songs/ --output-dir videos/ --shard auto --report "reports/shard-$SLURM_ARRAY_TASK_ID.json"
