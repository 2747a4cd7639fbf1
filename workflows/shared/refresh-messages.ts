import { defineQuery } from '@temporalio/workflow';
import type { RefreshProgress } from './refresh-types.js';

/** Where a refresh stands: patients asked, their verifications verified, failed, still running. */
export const refreshProgressQuery = defineQuery<RefreshProgress>('refreshProgress');
