import { defineResource } from '../types';
import * as deleteAsset from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';
import * as upload from './upload.operation';

export const asset = defineResource({
	name: 'Asset',
	description: 'Images, videos and audio that templates and videos use',
	defaultOperation: 'getAll',
	operations: { getAll, upload, get, update, delete: deleteAsset },
});
