import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export default function SurveyPlatformPage() {
  return <ScreenPlaceholder />;
}
