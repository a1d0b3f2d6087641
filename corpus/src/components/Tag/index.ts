import Tag from './Tag';
import TagGroup from './TagGroup';

type TagComponent = typeof Tag & { Group: typeof TagGroup };

const ExportedTag = Tag as TagComponent;
ExportedTag.Group = TagGroup;

export default ExportedTag;
export { TagGroup };
export { TAG_COLORS } from './Tag';
export type { TagProps, TagColor } from './Tag';
export type { TagGroupProps } from './TagGroup';
