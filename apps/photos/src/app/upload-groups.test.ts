import { uploadGroups } from './upload-groups.ts';

const picked = (relativePath: string) => ({ file: new File(['x'], relativePath.split('/').pop() ?? ''), relativePath });

describe('uploadGroups', () => {
  it('makes one group per top folder, nested folders included, and one of the loose files first', () => {
    const groups = uploadGroups([
      picked('Trip/Day 1/a.jpg'),
      picked('b.png'),
      picked('Trip/c.jpg'),
      picked('Home/d.heic'),
    ]);
    expect(groups.map((group) => [group.albumName, group.files.map((file) => file.name)])).toEqual([
      [undefined, ['b.png']],
      ['Trip', ['a.jpg', 'c.jpg']],
      ['Home', ['d.heic']],
    ]);
  });

  it('has no group for no files, and reads a leading slash as no folder', () => {
    expect(uploadGroups([])).toEqual([]);
    expect(uploadGroups([picked('/e.jpg')]).map((group) => group.albumName)).toEqual([undefined]);
  });
});
