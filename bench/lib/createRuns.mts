// Video > Create as benchmark 6 runs it (bench/rateLimit.mts, its node child, bench/usedKey.mts):
// the node's parameters, and how many of the items the sandbox's store holds exactly once.
import type { VideoInfo } from '../../sandbox/index.mts';

/** Create's parameters: item `n` (its `json.n`) is titled `${titlePrefix}${n}`. */
export const createParameters = (titlePrefix: string, templateId: string) => ({
	resource: 'video',
	operation: 'create',
	title: `={{ "${titlePrefix}" + $json.n }}`,
	template: { __rl: true, mode: 'id', value: templateId },
	customerDataMode: 'keyValue',
	customerData: { values: [{ key: 'first_name', value: '={{ "Customer " + $json.n }}' }] },
});

/** Of items 0..count-1 titled `${prefix}${n}`: how many were created, and how many more than once. */
export function createdOnce(videos: VideoInfo[], prefix: string, count: number) {
	const perItem = new Array<number>(count).fill(0);
	for (const video of videos) {
		const index = Number(video.title.slice(prefix.length));
		if (video.title.startsWith(prefix) && Number.isInteger(index) && index < count)
			perItem[index]++;
	}
	return {
		created: perItem.filter((n) => n > 0).length,
		duplicates: perItem.reduce((sum, n) => sum + Math.max(0, n - 1), 0),
	};
}
